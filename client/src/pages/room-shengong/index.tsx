import { RoomPage } from '../../components/room/RoomPage'

/** A 深宫杀 room: summary, seats and status for now; the game screen comes here later. */
export default function Room() {
  return <RoomPage family='shengong' />
}
