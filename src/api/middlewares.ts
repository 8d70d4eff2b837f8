import { defineMiddlewares } from "@medusajs/framework/http"

/** Webhook bodies are hints of a few hundred bytes: anything larger is refused with 413. */
export const WEBHOOK_BODY_LIMIT = "16kb"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/hooks/crypto/:token",
      method: ["POST"],
      bodyParser: { sizeLimit: WEBHOOK_BODY_LIMIT },
    },
  ],
})
