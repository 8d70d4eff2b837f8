import axios, { AxiosInstance } from "axios"
import { startSandbox, Sandbox, SandboxControl } from ".."

/**
 * A sandbox on loopback for one suite, driven over real HTTP as the contract tests are: started
 * before the suite, reset before each test, closed after. `http` sends the suite's API key.
 */
export function sandboxOverHttp(apiKey: string): { sandbox: Sandbox; http: AxiosInstance; control: SandboxControl } {
  const suite = {} as { sandbox: Sandbox; http: AxiosInstance; control: SandboxControl }
  beforeAll(async () => {
    suite.sandbox = await startSandbox({ apiKey })
    suite.http = axios.create({
      baseURL: suite.sandbox.url,
      validateStatus: () => true,
      headers: { "X-API-Key": apiKey },
    })
    suite.control = new SandboxControl(suite.sandbox.url)
  })
  afterAll(() => suite.sandbox.close())
  beforeEach(() => suite.control.reset())
  return suite
}
