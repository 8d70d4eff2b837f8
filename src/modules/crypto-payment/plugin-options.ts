import { z } from "zod"
import { MedusaError } from "@medusajs/framework/utils"
import { CUSTOMER_EMAIL_KINDS, CustomerEmailKind, DEFAULT_EMAIL_TEMPLATES } from "../../lib/domain/customer-email"

/**
 * The plugin's own options (`plugins: [{ resolve: "medusa-payment-crypto", options }]`). Medusa 2.21
 * hands them to the plugin's modules, not to its subscribers: the crypto payment module reads them
 * and the email subscriber asks the module.
 */
/** Medusa's starter's order page (`src/app/[countryCode]/(main)/order/[id]/confirmed`); its middleware adds the country. */
export const DEFAULT_ORDER_PATH = "/order/{order_id}/confirmed"

const notificationsSchema = z.strictObject({
  channel: z.literal("email").default("email"),
  /** Template ids per kind (link, detected, paid, expired, remainder, refund_address); the rest keep their defaults. */
  templates: z.partialRecord(z.enum(CUSTOMER_EMAIL_KINDS), z.string().trim().min(1)).optional(),
  /** The storefront's public URL: the links in the emails (order page, new payment link, start again). */
  storefrontUrl: z.url({ protocol: /^https?$/ }),
  /**
   * The order page under storefrontUrl; `{order_id}` is replaced. The default is Medusa's starter's order page,
   * which its middleware serves under the customer's country (`/<country>/order/<id>/confirmed`).
   */
  orderPath: z.string().regex(/^\//, "must start with /").default(DEFAULT_ORDER_PATH),
  /** The language of an email whose order has no locale. */
  defaultLocale: z.string().trim().min(2).default("en"),
})

/** How long delivered events and finished customer emails are kept before the job deletes them. */
export const DEFAULT_RETENTION_DAYS = 90

const pluginOptionsSchema = z
  .object({
    notifications: notificationsSchema.optional(),
    retentionDays: z
      .number({ error: "must be a whole number of days" })
      .int("must be a whole number of days")
      .min(1, "must be at least 1")
      .default(DEFAULT_RETENTION_DAYS),
    /**
     * Proxies of the shop's own in front of the backend (load balancer, CDN): the plugin's per-client
     * limits read the client from X-Forwarded-For behind exactly this many. 0 when exposed directly.
     */
    trustedProxyHops: z
      .number({ error: "must be a whole number of proxies" })
      .int("must be a whole number of proxies")
      .min(0, "must be 0 or more")
      .max(10, "must be at most 10")
      .default(1),
  })
  .loose()

export type PluginOptions = { notifications?: NotificationOptions; retentionDays: number; trustedProxyHops: number }

export type NotificationOptions = Omit<z.output<typeof notificationsSchema>, "templates"> & {
  templates: Record<CustomerEmailKind, string>
}

/**
 * Validates the plugin's options: a bad one stops the boot with the field named (never its value).
 * Returns the customer-email settings (absent when they are off: no `notifications`) and the retention.
 */
export function parsePluginOptions(options: unknown): PluginOptions {
  // reportInput: zod 4 drops `input` from issues otherwise, and every wrong type would read "is required"
  const result = pluginOptionsSchema.safeParse(options ?? {}, { reportInput: true })
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const field = issue.path.join(".") || "options"
      return issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => `"${field}.${key}" is not an option`).join("; ")
        : `"${field}" ${issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message}`
    })
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `medusa-payment-crypto: invalid plugin option ${problems.join("; ")}. Check the plugin's options in medusa-config.ts.`
    )
  }
  const { notifications: given, retentionDays, trustedProxyHops } = result.data
  if (!given) return { retentionDays, trustedProxyHops }
  return {
    notifications: { ...given, templates: { ...DEFAULT_EMAIL_TEMPLATES, ...given.templates } },
    retentionDays,
    trustedProxyHops,
  }
}

type NotificationModuleConfig = {
  options?: { providers?: Array<{ id?: string; options?: { channels?: unknown } }> }
}

/**
 * Medusa's default Notification Module serves only "feed". Undefined when the configuration cannot say:
 * then sending is tried.
 */
export function channelServed(
  modules: Record<string, unknown> | undefined,
  channel: string
): { served: boolean | undefined; providers: string[] } {
  const config = modules?.notification as NotificationModuleConfig | false | undefined
  if (config === false) return { served: false, providers: [] }
  const providers = config?.options?.providers
  if (!Array.isArray(providers)) return { served: undefined, providers: [] }
  const serving = providers.filter((p) => Array.isArray(p.options?.channels) && p.options.channels.includes(channel))
  return { served: serving.length > 0, providers: serving.map((p) => p.id ?? "?") }
}

/** The customer emails as this process sends them: the options, and whether a provider serves their channel. */
export type CustomerEmails = { options: NotificationOptions; served: boolean | undefined; providers: string[] }

export function customerEmailsLine(emails: CustomerEmails | undefined): string {
  if (!emails)
    return "customer emails off (the plugin's notifications option is not set); crypto_payment.* events are emitted"
  const { channel } = emails.options
  if (emails.served === false)
    return `customer emails off: no notification provider serves the "${channel}" channel (add one to the Notification Module, e.g. SendGrid or Resend, with channels ["${channel}"])`
  return `customer emails on, channel "${channel}"${emails.providers.length ? ` (${emails.providers.join(", ")})` : ""}`
}
