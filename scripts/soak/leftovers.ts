import fs from "node:fs"

/**
 * Processes of this run still alive after the store stopped (a dev-server child that `medusa develop`
 * forked for a file change while it was stopping outlives its group's SIGTERM): found by a value in
 * their environment that only this run's processes have (the probe's file), and killed. Linux only
 * (/proc); elsewhere nothing is found. Returns how many were killed.
 */
export function killLeftovers(name: string, value: string): number {
  if (!fs.existsSync("/proc")) return 0
  let killed = 0
  for (const pid of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    if (Number(pid) === process.pid) continue
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`${name}=${value}`)) continue
      process.kill(Number(pid), "SIGKILL")
      killed++
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return killed
}
