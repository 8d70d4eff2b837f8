import { spawn } from "node:child_process"
import { killLeftovers } from "../leftovers"

describe("the soak's leftover processes", () => {
  it("kills the processes whose environment names this run, and only those", async () => {
    const run = `/tmp/soak-test-${process.pid}-${Date.now()}/probe.jsonl`
    const ours = spawn("sleep", ["30"], { env: { ...process.env, SOAK_PROBE_FILE: run }, stdio: "ignore" })
    const other = spawn("sleep", ["30"], { env: { ...process.env, SOAK_PROBE_FILE: `${run}.other` }, stdio: "ignore" })
    const exited = new Promise<NodeJS.Signals | null>((resolve) => ours.once("exit", (_, signal) => resolve(signal)))
    try {
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(killLeftovers("SOAK_PROBE_FILE", run)).toBe(1)
      expect(await exited).toBe("SIGKILL")
      expect(other.exitCode).toBeNull()
    } finally {
      ours.kill("SIGKILL")
      other.kill("SIGKILL")
    }
  })
})
