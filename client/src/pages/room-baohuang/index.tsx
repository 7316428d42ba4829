import { RoomPage } from '../../components/room/RoomPage'

/** A 保皇 room: summary, seats and status for now; the game screen comes here later. */
export default function Room() {
  return <RoomPage family='baohuang' />
}
