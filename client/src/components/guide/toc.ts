/** A section's name in the 玩法 page's strip of contents: the server's titles put the subject before a
 * full-width colon and its details after (「身份：皇帝、侍卫（保子）与平民」), and name the parts of one
 * subject after 「 · 」 (「角色一览 · 村民」), so the strip keeps the subject, or the part. */
export function tocLabel(title: string): string {
  const subject = title.split('：')[0]
  const parts = subject.split(' · ')
  return parts[parts.length - 1]
}

/** How far below the page's top edge a heading may sit and still be the section she is reading. */
const SLACK = 24

/** The section she is reading with the page scrolled to `scrollTop`: the last whose heading has come up
 * to the top (its top `tops[i]` within the page), or the last of all once the page is at its end (the
 * last sections are too short to come up to the top). */
export function sectionAt(tops: readonly number[], scrollTop: number, atEnd: boolean): number {
  if (!tops.length) return 0
  if (atEnd) return tops.length - 1
  let at = 0
  tops.forEach((top, index) => {
    if (top <= scrollTop + SLACK) at = index
  })
  return at
}
