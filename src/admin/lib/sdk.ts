import Medusa from "@medusajs/js-sdk"

/** The admin's own session: the dashboard is served by the same backend. */
export const sdk = new Medusa({
  baseUrl: import.meta.env.VITE_BACKEND_URL || "/",
  auth: { type: "session" },
})
