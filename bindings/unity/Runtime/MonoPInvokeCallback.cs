using System;

namespace AOT
{
    /// <summary>Marks a static method native code calls back into (a reader's read and release,
    /// the log callback), so that IL2CPP and Mono's AOT compiler generate its native entry
    /// point. Unity declares this attribute in UnityEngine, which Relief.Runtime does not
    /// reference (its asmdef sets noEngineReferences), and both compilers find it by name, so
    /// the package declares its own, unconditionally. Internal, so that an assembly seeing
    /// both this and Unity's never finds the name ambiguous.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}
