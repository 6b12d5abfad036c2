"""PDF assembly: game-night packets and convention batches, with pypdf for reading back."""
