import { defineConfig } from 'vite';

// One bundle (app.js + app.css) for every page, written straight into the jar's static resources:
// Thymeleaf pages load /ui/app.js and /ui/app.css. Fixed names, so the templates need no manifest.
export default defineConfig({
  base: '/ui/',
  build: {
    outDir: '../target/classes/static/ui',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      input: 'src/main.ts',
      output: {
        entryFileNames: 'app.js',
        chunkFileNames: 'app-[name].js',
        assetFileNames: 'app[extname]',
      },
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
