export default definePageConfig({
  navigationBarTitleText: '血染甄嬛传',
  enableShareAppMessage: true,
})
