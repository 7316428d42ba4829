/**
 * 开战: the room turns from waiting (`open`) to playing (`active`) while she looks at it — the waiting
 * room was long (seats, bots, 开战 at the bottom), so the page goes back to its top, where the game
 * begins (the status seal, 圣意, her place). A page opened on a game already under way stays put.
 */
export function battleBegan(before: string | undefined, now: string | undefined): boolean {
  return before === 'open' && now === 'active'
}
