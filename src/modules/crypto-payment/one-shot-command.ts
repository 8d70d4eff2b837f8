/**
 * Medusa's one-shot commands (`medusa db:migrate`, `medusa user`, `medusa exec` …) boot the app with
 * MEDUSA_WORKER_MODE=server and run its start hooks. Such a process serves nothing and ends at once:
 * registering it, or checking the setup from it, would only log a false "workerMode is server" alarm.
 */
const ONE_SHOT = /^(db:|plugin:|user$|exec$)/

export function isOneShotCommand(argv: readonly string[] = process.argv): boolean {
  const [, script = "", ...rest] = argv
  if (!/(^|[\\/])medusa(\.js)?$|@medusajs[\\/](cli|medusa)[\\/]/.test(script)) return false
  const command = rest.find((arg) => !arg.startsWith("-"))
  return !!command && ONE_SHOT.test(command)
}
