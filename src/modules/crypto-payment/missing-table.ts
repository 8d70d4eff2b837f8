/** PostgreSQL's undefined_table: a table the query names is not there (a migration not run, another provider's table). */
const UNDEFINED_TABLE = "42P01"

export function isMissingTable(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === UNDEFINED_TABLE
}
