import type { PropsWithChildren } from 'react'
import Taro, { useLaunch } from '@tarojs/taro'
import { session } from './api'
import './app.css'

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    // a refused token that could not be renewed: back to the gate
    session.onSignedOut(() => {
      void Taro.reLaunch({ url: '/pages/login/index' })
    })
  })
  return children
}

export default App
