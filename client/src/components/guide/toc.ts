/** A section's name in the 玩法 page's strip of contents: the server's titles put the subject before a
 * full-width colon and its details after (「身份：皇帝、侍卫（保子）与反贼」), and name the parts of one
 * subject after 「 · 」 (「角色一览 · 村民」), so the strip keeps the subject, or the part. */
export function tocLabel(title: string): string {
  const subject = title.split('：')[0]
  const parts = subject.split(' · ')
  return parts[parts.length - 1]
}
