/**
 * A CPU profile of a running Medusa, for docs/performance.md. Node refuses `--cpu-prof` in
 * NODE_OPTIONS, so this preload starts V8's profiler through node:inspector instead:
 *
 *   CPU_PROFILE_DIR=/tmp/profiles NODE_OPTIONS="--require ./scripts/profile/cpu-profile.js" npx medusa develop
 *
 * Every node process it loads into (npx, the CLI, the server) profiles from its start; `kill -USR2 <pid>`
 * writes `<dir>/<pid>.cpuprofile` (open it in Chrome's DevTools or speedscope) and starts a new one.
 * The profile's timestamps are process.hrtime's clock in microseconds, so a client that notes
 * `process.hrtime.bigint() / 1000n` around the work it drives can cut the profile to that window.
 * Keep the profiles out of the repository.
 */
const fs = require("node:fs")
const path = require("node:path")
const inspector = require("node:inspector")

const dir = process.env.CPU_PROFILE_DIR || require("node:os").tmpdir()
const session = new inspector.Session()
session.connect()
const start = () => session.post("Profiler.start")
session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 500 }, start))

process.on("SIGUSR2", () => {
  session.post("Profiler.stop", (error, result) => {
    if (!error) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile))
    start()
  })
})
