/**
 * With --json a command prints exactly one JSON object on stdout; without it, a line for people.
 * Everything else (logs, warnings) goes to stderr.
 */
export function emit(json: boolean, value: object, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

/** A first call to paste into a shell. */
export function curlExample(baseUrl: string, key: string): string {
  return `curl -s ${baseUrl}/v1/account/balance -H 'X-Authorization: ${key}'`;
}
