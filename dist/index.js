process.setSourceMapsEnabled(true);
await import('./index.bundle.js');
