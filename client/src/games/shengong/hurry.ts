/**
 * 有人迟迟不动: 催战 is offered to the one who may press it once someone has sealed and someone has not
 * (it is confirmed first) — not while her own move is missing: she would be hurrying herself, and
 * moves instead.
 */
export function hurryOffered(
  mayHurry: boolean,
  mySeat: number | null | undefined,
  pending: { kind: string; seats: number[]; submitted?: number[] | null } | null | undefined,
): boolean {
  if (!mayHurry || pending?.kind !== 'sealed') return false
  const sealed = pending.submitted ?? []
  const iOwe = mySeat !== null && mySeat !== undefined && pending.seats.includes(mySeat) && !sealed.includes(mySeat)
  return sealed.length > 0 && sealed.length < pending.seats.length && !iOwe
}
