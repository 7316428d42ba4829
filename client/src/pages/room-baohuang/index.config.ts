export default definePageConfig({
  navigationBarTitleText: '保皇',
  enableShareAppMessage: true,
})
