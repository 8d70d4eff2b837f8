import { channelServed, customerEmailsLine, parsePluginOptions } from "../plugin-options"

describe("the plugin's options", () => {
  it("are optional: no notifications, no emails, 90 days of retention", () => {
    for (const options of [undefined, {}]) {
      expect(parsePluginOptions(options)).not.toHaveProperty("notifications")
      expect(parsePluginOptions(options).retentionDays).toBe(90)
    }
  })

  it("keep a shop's own retentionDays", () => {
    expect(parsePluginOptions({ retentionDays: 30 }).retentionDays).toBe(30)
    expect(parsePluginOptions({ retentionDays: 1 }).retentionDays).toBe(1)
    expect(
      parsePluginOptions({ retentionDays: 365, notifications: { storefrontUrl: "https://s.example" } })
    ).toMatchObject({ retentionDays: 365, notifications: { storefrontUrl: "https://s.example" } })
  })

  it.each([
    [0, /"retentionDays" must be at least 1\b/],
    [-7, /"retentionDays" must be at least 1\b/],
    [1.5, /"retentionDays" must be a whole number of days/],
    ["30", /"retentionDays" must be a whole number of days/],
    [null, /"retentionDays" must be a whole number of days/],
  ])("stop the boot naming retentionDays: %j", (retentionDays, message) => {
    expect(() => parsePluginOptions({ retentionDays })).toThrow(message)
    expect(() => parsePluginOptions({ retentionDays })).toThrow(/Check the plugin's options in medusa-config.ts/)
  })

  it("fill the defaults and keep a shop's own template ids", () => {
    const { notifications } = parsePluginOptions({
      notifications: { storefrontUrl: "https://shop.example", templates: { paid: "d-123" } },
    })
    expect(notifications).toEqual({
      channel: "email",
      storefrontUrl: "https://shop.example",
      orderPath: "/order/{order_id}/confirmed",
      defaultLocale: "en",
      templates: {
        link: "crypto-payment-link",
        detected: "crypto-payment-detected",
        paid: "d-123",
        expired: "crypto-payment-expired",
        remainder: "crypto-payment-remainder",
        refund_address: "crypto-refund-address",
      },
    })
  })

  it.each([
    [{ notifications: {} }, /"notifications.storefrontUrl" is required/],
    [{ notifications: { storefrontUrl: 42 } }, /"notifications.storefrontUrl" Invalid input: expected string/],
    [{ notifications: { storefrontUrl: "not a url" } }, /"notifications.storefrontUrl"/],
    [{ notifications: { storefrontUrl: "https://s.example", channel: "sms" } }, /"notifications.channel"/],
    [{ notifications: { storefrontUrl: "https://s.example", templates: { refund: "x" } } }, /"notifications.templates/],
    [
      { notifications: { storefrontUrl: "https://s.example", colour: "red" } },
      /"notifications.colour" is not an option/,
    ],
  ])("stop the boot naming the field: %j", (options, message) => {
    expect(() => parsePluginOptions(options)).toThrow(message)
  })

  it("never repeat a value given", () => {
    expect(() => parsePluginOptions({ notifications: { storefrontUrl: "secret-value-123" } })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("secret-value-123") })
    )
  })
})

describe("whether a notification provider serves the channel", () => {
  const provider = (id: string, channels: string[]) => ({ id, options: { channels } })
  it.each([
    [
      "Medusa's default (feed only)",
      { notification: { options: { providers: [provider("local", ["feed"])] } } },
      false,
    ],
    ["a provider for email", { notification: { options: { providers: [provider("sendgrid", ["email"])] } } }, true],
    ["the module disabled", { notification: false }, false],
    ["no configuration to read", undefined, undefined],
  ])("%s", (_why, modules, served) => {
    expect(channelServed(modules as Record<string, unknown> | undefined, "email").served).toBe(served)
  })
})

describe("the boot line about customer emails", () => {
  const options = parsePluginOptions({ notifications: { storefrontUrl: "https://s.example" } }).notifications!
  it.each([
    [undefined, /^customer emails off \(the plugin's notifications option is not set\)/],
    [
      { options, served: false, providers: [] },
      /^customer emails off: no notification provider serves the "email" channel/,
    ],
    [{ options, served: true, providers: ["sendgrid"] }, /^customer emails on, channel "email" \(sendgrid\)$/],
    [{ options, served: undefined, providers: [] }, /^customer emails on, channel "email"$/],
  ])("%#", (emails, line) => {
    expect(customerEmailsLine(emails)).toMatch(line)
  })
})
