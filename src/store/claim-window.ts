/** A worker's claim on due work: up to `limit` items due at `now`, held by `workerId` until `claimUntil`. */
export interface ClaimWindow {
  readonly now: number;
  readonly limit: number;
  readonly workerId: string;
  readonly claimUntil: number;
}
