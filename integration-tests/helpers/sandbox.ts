import { startSandbox, Sandbox, SandboxControl, SandboxOptions } from "../../src/sandbox"
import { freePort } from "./ports"

export const SANDBOX_API_KEY = "integration_sandbox_key"

/**
 * Starts the service sandbox for a test file and points the development store at it (and at the
 * app's own port for webhooks). Call at the top of the file, before medusaIntegrationTestRunner:
 * its beforeAll must run before the runner loads medusa-config.ts.
 */
export function useSandbox(env: Record<string, string> = {}, options: SandboxOptions = {}) {
  let sandbox: Sandbox
  let control: SandboxControl
  const saved: Record<string, string | undefined> = {}

  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: SANDBOX_API_KEY, webhookRetryBaseMs: 50, ...options })
    control = new SandboxControl(sandbox.url)
    const port = await freePort()
    const vars: Record<string, string> = {
      PORT: String(port),
      CRYPTO_API_KEY: SANDBOX_API_KEY,
      CRYPTO_BASE_URL: sandbox.url,
      CRYPTO_BACKEND_URL: `http://localhost:${port}`,
      CRYPTO_REQUEST_TIMEOUT_MS: "3000",
      // EUR carts are priced from the sandbox's ECB file: no test reaches the internet
      CRYPTO_ECB_URL: `${sandbox.url}/ecb/eurofxref-daily.xml`,
      ...env,
    }
    for (const [key, value] of Object.entries(vars)) {
      saved[key] = process.env[key]
      process.env[key] = value
    }
  })

  beforeEach(() => control.reset())

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await sandbox?.close()
  })

  return {
    sandbox: () => sandbox,
    control: () => control,
  }
}

/** The sandbox of a spec file, as its tests reach it. */
export type SandboxHandle = ReturnType<typeof useSandbox>
