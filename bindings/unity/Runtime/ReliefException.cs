using System;
using System.Runtime.InteropServices;
using System.Text;
using Relief.Native;

namespace Relief
{
    /// <summary>What went wrong in a relief call: the status and relief's message, as
    /// "NOT_FOUND: /path/world: file is missing" (the status's C name, then the message).</summary>
    public sealed class ReliefException : Exception
    {
        /// <summary>relief's status for the failure.</summary>
        public readonly ReliefStatus Status;

        public ReliefException(ReliefStatus status, string message) : base(message) { Status = status; }

        /// <summary>Throws for any status but OK, with the calling thread's last error.</summary>
        internal static void Check(uint status)
        {
            if (status != NativeMethods.RELIEF_STATUS_OK)
                throw Of(status);
        }

        /// <summary>The exception for a failed call's <paramref name="status"/>, read at once
        /// (relief keeps the calling thread's message only until its next failing call).</summary>
        internal static ReliefException Of(uint status)
        {
            return new ReliefException((ReliefStatus)status, StatusName((ReliefStatus)status) + ": " + LastError());
        }

        /// <summary>relief's name for <paramref name="status"/>: its RELIEF_STATUS_* constant
        /// without the prefix ("OK", "INVALID_ARGUMENT", …; "UNKNOWN" for no status).</summary>
        public static string StatusName(ReliefStatus status)
        {
            return Utf8(NativeMethods.relief_status_name((uint)status));
        }

        /// <summary>The calling thread's last error message ("" if none).</summary>
        public static string LastError()
        {
            return Utf8(NativeMethods.relief_last_error_message());
        }

        /// <summary>relief's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version()
        {
            return Utf8(NativeMethods.relief_version());
        }

        internal static unsafe string Utf8(IntPtr text)
        {
            if (text == IntPtr.Zero)
                return "";
            byte* p = (byte*)text;
            int n = 0;
            while (p[n] != 0)
                n++;
            return Encoding.UTF8.GetString(p, n);
        }

        internal static byte[] CString(string text)
        {
            int n = Encoding.UTF8.GetByteCount(text);
            byte[] bytes = new byte[n + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }
    }
}
