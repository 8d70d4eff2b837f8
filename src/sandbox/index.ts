export { startSandbox, CONTROL_PREFIX, ECB_FILE_PATH } from "./server"
export type { Sandbox, SandboxOptions, Fault, FaultKind, LoggedRequest, RateLimit } from "./server"
export type { EcbSettings, EcbState, EcbStatus } from "./ecb-feed"
export { SandboxControl } from "./control-client"
