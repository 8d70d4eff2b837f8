/** The commit a measured document was made at, and whether the tree had changes beside it. */
export function commitStamp(): string
