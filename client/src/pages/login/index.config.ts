export default definePageConfig({
  navigationBarTitleText: '入宫',
  navigationStyle: 'custom',
})
