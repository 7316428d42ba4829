import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: {
      // unit tests never load Taro's runtime: a small fake with in-memory storage and spies
      '@tarojs/taro': fileURLToPath(new URL('./src/test/taro-fake.ts', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  define: { API_BASE: JSON.stringify('') },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30000,
  },
})
