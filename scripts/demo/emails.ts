import { Client } from "pg"

type Email = { to: string; template: string; data: Record<string, unknown> | null }

/**
 * Prints the customer emails the Notification Module stored for an order (the development store's
 * local provider "sends" them to its log), waiting a moment for `expected` templates: the email
 * subscriber runs after the event that causes it.
 */
export async function printEmails(
  databaseUrl: string,
  orderId: string,
  expected: string[],
  say: (line: string) => void
): Promise<Email[]> {
  const db = new Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    const read = async () =>
      (
        await db.query(
          `select "to", "template", "data" from "notification" where "channel" = 'email'
             and "template" like 'crypto-payment-%' and "data"->>'order_id' = $1 order by "created_at"`,
          [orderId]
        )
      ).rows as Email[]
    const deadline = Date.now() + 15_000
    let emails = await read()
    while (!expected.every((t) => emails.some((e) => e.template === t)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 300))
      emails = await read()
    }
    for (const email of emails) {
      const data = email.data ?? {}
      const detail = [
        data.coin_amount
          ? `${data.coin_amount} ${data.coin}`
          : data.received_amount
            ? `${data.received_amount} ${data.coin}`
            : "",
        data.invoice_url ? `pay at ${data.invoice_url}` : "",
        data.order_url ? `order page ${data.order_url}` : "",
      ]
        .filter(Boolean)
        .join(", ")
      say(`✉ to ${email.to}: ${email.template} (${data.locale ?? "?"})${detail ? ` — ${detail}` : ""}`)
    }
    if (!emails.length) say("no email stored (CRYPTO_NOTIFICATIONS=off?)")
    return emails
  } finally {
    await db.end()
  }
}
