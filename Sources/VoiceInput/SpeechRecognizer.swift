import CPocketSphinx

/// Speech recognition of commands through pocketsphinx (filled in by #5).
public enum SpeechRecognizerPlaceholder {}
