/** 复制邀请: what a friend needs to get in — the link (H5), the room id, the 暗号 if she knows it. */
export function inviteText({ title, roomId, url, password }: { title: string; roomId: string; url?: string | null; password?: string | null }): string {
  const lines = [`邀你入宫同玩「${title}」`]
  if (url) lines.push(url)
  lines.push(`房号：${roomId}`)
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
