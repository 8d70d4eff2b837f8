import type { ServerResponse } from "node:http"
import type { PaymentBook } from "./payment-book"
import type { BookEntry } from "./book-entry"
import type { WebhookDispatcher } from "./webhooks"
import type { FaultInjector } from "./faults"
import type { ServiceConfig } from "./spec-api"
import type { EcbFeed } from "./ecb-feed"

/** What the control API reads and changes: the sandbox's whole state. */
export type ControlContext = {
  book: PaymentBook
  webhooks: WebhookDispatcher
  faults: FaultInjector
  requests: Array<{ path: string }>
  /** The ECB's daily file of euro reference rates the sandbox serves. */
  ecb: EcbFeed
  config: ServiceConfig
  /** The config the sandbox was started with, restored by POST /reset. */
  initialConfig: ServiceConfig
  statusRecord: (record: BookEntry) => Record<string, unknown>
  invoiceUrl: (paymentId: string) => string
}

export type ControlCall = { method: string; res: ServerResponse; path: string; body: any; query: URLSearchParams }

/** One control route's handler: the sandbox's state, and the call with the parameters of the route's path. */
export type ControlHandler = (sandbox: ControlContext, call: ControlCall & { params: Record<string, string> }) => void
