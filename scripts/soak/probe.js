/**
 * The soak's probe inside the Medusa process (`npm run soak` loads it with NODE_OPTIONS="--require …"):
 * every SOAK_PROBE_MS it appends one JSON line to SOAK_PROBE_FILE with the heap, the RSS and the
 * event loop's delay over the period (`monitorEventLoopDelay`, which only sees the process it runs in).
 *
 * NODE_OPTIONS reaches every node process `medusa develop` starts (npx, the CLI, the server it forks):
 * only the server, the process running Medusa's `start` command, samples. Before each sample it runs a
 * full garbage collection, with the loop delay histogram off, so `heapUsed` is what the process holds
 * (a leak's trend, not the collector's rhythm) and the collection's own pause is not counted as delay.
 * Its timer is unref'd: the probe never keeps the process alive. While `${SOAK_PROBE_FILE}.pause` exists it
 * skips its ticks (no collection, no sample): a forced full collection every tick would slow what a bench
 * times meanwhile.
 */
const fs = require("node:fs")
const v8 = require("node:v8")
const vm = require("node:vm")
const { monitorEventLoopDelay } = require("node:perf_hooks")

const file = process.env.SOAK_PROBE_FILE
const periodMs = Number(process.env.SOAK_PROBE_MS || 60_000)
const isServer = process.argv.slice(2).includes("start")

if (file && isServer) {
  v8.setFlagsFromString("--expose-gc")
  const gc = vm.runInNewContext("gc")
  const RESOLUTION_MS = 10
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  delay.enable()
  // the histogram records the time between two of its timer's ticks: the delay is what exceeds the resolution
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100)
  const paused = `${file}.pause`
  const sample = () => {
    if (fs.existsSync(paused)) return
    const loop = {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      mean: ms(delay.mean),
    }
    delay.disable()
    gc()
    const { heapUsed, rss } = process.memoryUsage()
    delay.reset()
    delay.enable()
    const line = {
      pid: process.pid,
      at: new Date().toISOString(),
      uptimeS: Math.round(process.uptime()),
      heapUsed,
      rss,
      loop,
    }
    fs.appendFile(file, `${JSON.stringify(line)}\n`, () => undefined)
  }
  setInterval(sample, periodMs).unref()
}
