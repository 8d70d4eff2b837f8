import { createUsersWorkflow } from "@medusajs/core-flows"
import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

export type AdminHeaders = { headers: { authorization: string } }

/**
 * An admin user who can call /admin/*: the user, an emailpass identity bound to it,
 * and a token from the real login route.
 */
export async function createAdminUser(
  api: { post: (url: string, body: unknown) => Promise<{ data: any }> },
  container: MedusaContainer,
  email = "admin@crypto.test",
  password = "supersecret-password"
): Promise<AdminHeaders> {
  const {
    result: [user],
  } = await createUsersWorkflow(container).run({
    input: { users: [{ email, first_name: "Crypto", last_name: "Admin" }] },
  })
  const auth = container.resolve(Modules.AUTH)
  const { authIdentity, error } = await auth.register("emailpass", {
    body: { email, password },
  } as any)
  if (!authIdentity) {
    throw new Error(`could not register the admin identity: ${error}`)
  }
  await auth.updateAuthIdentities({
    id: authIdentity.id,
    app_metadata: { user_id: user.id },
  })
  const { data } = await api.post("/auth/user/emailpass", { email, password })
  return { headers: { authorization: `Bearer ${data.token}` } }
}
