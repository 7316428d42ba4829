import { useEffect, useState } from 'react'
import { View } from '@tarojs/components'
import { NETWORK_MESSAGE } from '../api/errors'
import { isUnstable, onUnstable } from '../api/network'

/** 「网络不稳，正在重连…」 while a poll has lost its answer; gone when answers come again. */
export function NetBanner() {
  const [unstable, setUnstable] = useState(isUnstable())
  useEffect(() => onUnstable(setUnstable), [])
  if (!unstable) return null
  return <View className='net-banner' role='status'>{NETWORK_MESSAGE}</View>
}
