using System.Runtime.CompilerServices;

// The tests check the internal C declarations (Relief.Native) against the header.
[assembly: InternalsVisibleTo("Relief.Tests")]
