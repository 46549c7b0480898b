/** Drivers hand integers back as number or bigint depending on dialect and width; convert once, here. */
export const big = (value: number | bigint): bigint => (typeof value === 'bigint' ? value : BigInt(value));
export const num = (value: number | bigint): number => Number(value);
export const flag = (value: number | bigint): boolean => Number(value) !== 0;
