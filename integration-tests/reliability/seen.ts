import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { AxiosInstance, AxiosResponse } from "axios"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/**
 * Everything the app said during a reliability run, for R7's secrets scan: log lines of the
 * in-process Medusa (the container's logger), the log files of the Medusa processes a spec
 * started, and every HTTP answer the specs received. Kept in one file per run, so the scan
 * (secrets.spec.ts, run last) covers the whole run; each line is `{ from, text }`.
 */
const RUN = process.env.RELIABILITY_RUN ?? `pid-${process.pid}`
export const SEEN_FILE = path.join(os.tmpdir(), `crypto-reliability-${RUN}-seen.ndjson`)

export type Seen = { from: string; text: string }

export function keepSeen(from: string, texts: string[]): void {
  if (!texts.length) return
  fs.appendFileSync(SEEN_FILE, texts.map((text) => JSON.stringify({ from, text }) + "\n").join(""))
}

export function readSeen(): Seen[] {
  if (!fs.existsSync(SEEN_FILE)) return []
  return fs
    .readFileSync(SEEN_FILE, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Seen)
}

const describeArg = (a: unknown) =>
  typeof a === "string" ? a : a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a)

/** Keeps every line the container's logger writes (it still writes them). */
export function keepLogs(from: string, container: MedusaContainer): void {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<
    string,
    (...a: unknown[]) => unknown
  >
  for (const level of ["info", "warn", "error", "debug", "log"]) {
    const original = logger[level]?.bind(logger)
    if (!original) continue
    jest.spyOn(logger, level as never).mockImplementation(((...args: unknown[]) => {
      keepSeen(from, [args.map(describeArg).join(" ")])
      return original(...args)
    }) as never)
  }
}

/** Keeps the headers and body of an HTTP answer. */
export function keepAnswer(from: string, res: AxiosResponse | undefined): void {
  if (!res) return
  keepSeen(from, [
    JSON.stringify(res.headers ?? {}),
    typeof res.data === "string" ? res.data : JSON.stringify(res.data ?? ""),
  ])
}

/** Keeps every answer an axios instance receives, errors included. */
export function keepAnswers(from: string, ...instances: AxiosInstance[]): void {
  for (const instance of instances) {
    instance.interceptors.response.use(
      (res) => (keepAnswer(from, res), res),
      (error) => {
        keepAnswer(from, error?.response)
        return Promise.reject(error)
      }
    )
  }
}

/** Keeps the log files of Medusa processes a spec started (scripts/demo/store.ts's logDir). */
export function keepLogFiles(from: string, dir: string): void {
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".log"))) {
    keepSeen(from, fs.readFileSync(path.join(dir, name), "utf8").split("\n").filter(Boolean))
  }
}
