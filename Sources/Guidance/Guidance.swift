// The Guidance module; see STYLE.md for its place in the data flow.
