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

/** What she typed into 「输入房号」 as the server reads it: full-width digits (a Chinese keyboard's) made
 * plain, spaces let go (「482 913」 read aloud in pairs or threes). */
export function typedRoomCode(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '')
}
