// The Hearing module; see STYLE.md for its place in the data flow.
