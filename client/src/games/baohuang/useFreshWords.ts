import { useEffect, useRef, useState } from 'react'
import { freshWords, type BaohuangView } from './table'

/** `freshWords` between the view shown before and this one (nothing on first sight or a new deal). */
export function useFreshWords(game: BaohuangView): Map<number, number> {
  const log = game.log ?? []
  const last = useRef<{ deal: number; len: number } | null>(null)
  const [fresh, setFresh] = useState<Map<number, number>>(() => new Map())
  useEffect(() => {
    const before = last.current
    last.current = { deal: game.deal_no, len: log.length }
    setFresh(before && before.deal === game.deal_no && log.length > before.len
      ? freshWords(log.slice(before.len), game.seat) : new Map())
  }, [game.deal_no, log.length])
  return fresh
}
