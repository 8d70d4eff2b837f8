export { startSandbox, CONTROL_PREFIX } from "./server"
export type { Sandbox, SandboxOptions, Fault, FaultKind, LoggedRequest, RateLimit } from "./server"
export { SandboxControl } from "./control-client"
