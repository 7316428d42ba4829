import { View } from '@tarojs/components'
import { messageOf } from '../api/errors'

/** The API's Chinese message (or our own line for anything else), or nothing. */
export function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null
  return <View className='error-line' role='alert'>{typeof error === 'string' ? error : messageOf(error)}</View>
}
