import type { Logger } from "@medusajs/framework/types"

/** What every line the plugin writes to the shop's log starts with, so a shop owner can find them. */
export const LOG_PREFIX = "medusa-payment-crypto:"

export type PluginLog = Record<"debug" | "info" | "warn" | "error", (message: string) => void>

/**
 * The logger is looked up at each call, so one swapped later still receives the lines. Never give it
 * the API key, a webhook token or a body from the service.
 */
export function pluginLog(logger: Logger): PluginLog {
  const line = (message: string) => `${LOG_PREFIX} ${message}`
  return {
    debug: (message) => logger.debug(line(message)),
    info: (message) => logger.info(line(message)),
    warn: (message) => logger.warn(line(message)),
    error: (message) => logger.error(line(message)),
  }
}

/**
 * For lines on the hot path: Medusa's winston logger formats a line before its transports drop it by
 * level, so a hidden debug line still costs its formatting.
 */
export function logs(logger: Pick<Logger, "shouldLog">, level: string): boolean {
  return typeof logger.shouldLog !== "function" || logger.shouldLog(level)
}
