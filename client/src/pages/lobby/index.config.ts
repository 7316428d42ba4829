export default definePageConfig({
  navigationBarTitleText: '大厅',
})
