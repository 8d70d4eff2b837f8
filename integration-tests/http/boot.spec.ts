import { spawn } from "node:child_process"
import { databaseUrl, dropDatabase, recreateDatabase } from "../helpers/database"

jest.setTimeout(180_000)

const DB = "crypto_boot_check"

/** Boots the development store through the Medusa CLI (db:migrate loads every module). */
function boot(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["medusa", "db:migrate", "--skip-links"], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: databaseUrl(DB), ...env },
    })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("exit", (code) => resolve({ code, output }))
  })
}

describe("booting a store with bad crypto provider options", () => {
  beforeAll(() => recreateDatabase(DB))
  afterAll(() => dropDatabase(DB))

  it("fails when apiKey is missing, naming apiKey and never printing the other secrets", async () => {
    const { code, output } = await boot({
      CRYPTO_API_KEY: "",
      CRYPTO_WEBHOOK_SECRET: "whsec_visible_only_to_the_shop_owner",
    })
    expect(code).not.toBe(0)
    expect(output).toContain('invalid provider option "apiKey"')
    expect(output).not.toContain("whsec_visible_only_to_the_shop_owner")
  })

  it("fails when expirationMinutes is outside 5–1440, naming the field", async () => {
    const { code, output } = await boot({ CRYPTO_EXPIRATION_MINUTES: "2000" })
    expect(code).not.toBe(0)
    expect(output).toContain('"expirationMinutes" must be at most 1440')
  })
})
