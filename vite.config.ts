import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const backend = process.env.AXIOM_BACKEND ?? 'http://127.0.0.1:8787'

export default defineConfig({
  root: 'ui',
  envDir: '..',
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: Number(process.env.APP_PORT ?? 5173),
    strictPort: false,
    proxy: {
      '/api': { target: backend, ws: true, changeOrigin: true },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: backend, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
  },
})
