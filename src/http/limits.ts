/** The largest body the API reads. */
export const BODY_LIMIT_BYTES = 256 * 1024;
