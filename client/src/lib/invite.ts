/** 复制邀请: what a friend needs to get in — the link (H5), the 房号, the 暗号 if she knows it. */
export function inviteText({ title, roomCode, url, password }: { title: string; roomCode: string; url?: string | null; password?: string | null }): string {
  const lines = [`邀你入宫同玩「${title}」`]
  if (url) lines.push(url)
  lines.push(`房号：${roomCode}`)
  if (password) lines.push(`暗号：${password}`)
  if (!url) lines.push('在「深宫」大厅「输入房号」即可入席')
  return lines.join('\n')
}

/** The room page's address on H5 (the page's own origin); none in the mini-program. */
export function roomLink(path: string): string | null {
  if (process.env.TARO_ENV === 'h5') {
    return `${window.location.origin}${path}`
  }
  return null
}

/** What she typed (or pasted) into 「输入房号」, as the server reads it: full-width digits (a Chinese
 * keyboard's) made plain, spaces let go (「482 913」 read aloud in pairs or threes); from a pasted
 * invitation (复制邀请's text, 「房号：482913」) the code it names. A long room id is kept as it is. */
export function typedRoomCode(text: string): string {
  // by hand, not normalize('NFKC'): a mini-program's JS engine may lack ICU
  const plain = text.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xFF10 + 48))
  const named = /房号[:：]?\s*([1-9]\d{2}\s?\d{3})(?!\d)/.exec(plain)
  if (named) return named[1].replace(/\s/g, '')
  return plain.replace(/\s+/g, '')
}
