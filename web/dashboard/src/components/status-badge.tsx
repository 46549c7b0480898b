/** A status as a word with its colour (the word carries the meaning; the colour only helps). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status.toLowerCase()}`}>{status}</span>;
}
