/**
 * A redis-server that lives as long as one run (no persistence), on a free port near 6390: what the
 * soak's `--locking redis` locks through. Debian's redis-server (`apt-get install -y redis-server`).
 */
import { execFileSync, spawn } from "node:child_process"
import fs from "node:fs"
import { choosePort } from "../demo/store"

export type ThrowawayRedis = { url: string; port: number; stop: () => Promise<void> }

const ping = (port: number) => {
  try {
    return execFileSync("redis-cli", ["-p", String(port), "ping"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim()
  } catch {
    return "down"
  }
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  if (!fs.existsSync("/usr/bin/redis-server"))
    throw new Error("redis-server is missing: install it with `sudo apt-get install -y redis-server`.")
  const port = await choosePort(6390)
  const server = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  })
  const deadline = Date.now() + 10_000
  while (ping(port) !== "PONG") {
    if (server.exitCode !== null) throw new Error(`redis-server exited (code ${server.exitCode})`)
    if (Date.now() > deadline) {
      server.kill("SIGTERM")
      throw new Error("redis-server did not answer within 10 s")
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const stop = async () => {
    if (server.exitCode !== null) return
    const exited = new Promise((resolve) => server.once("exit", resolve))
    server.kill("SIGTERM")
    await exited
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop }
}

/** The keys the server holds now and their values (the soak lists the locks a killed process left, with their owners). */
export function redisEntries(port: number): Array<{ key: string; value: string }> {
  const cli = (...args: string[]) =>
    execFileSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8" })
      .split("\n")
      .slice(0, -1)
  const keys = cli("--scan").filter(Boolean)
  if (!keys.length) return []
  const values = cli("MGET", ...keys)
  return keys.map((key, i) => ({ key, value: values[i] ?? "" }))
}
