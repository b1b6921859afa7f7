/// The command language: what can be said or typed, as intents with slots (filled in by #5).
public enum CommandLanguagePlaceholder {}
