// IL2CPP's rules, checked on compiled assemblies (tests/unity_compile.rs runs this under Mono
// on the package as an Android IL2CPP player compiles it):
//
// 1. A delegate handed to native code — one of a type marked [UnmanagedFunctionPointer] — is
//    made from a static method marked [MonoPInvokeCallback(typeof(ThatType))]. IL2CPP turns
//    such a method into a native entry point ahead of time and can call back into nothing
//    else; it finds the attribute by name, so the package declares its own (AOT namespace).
// 2. Nothing reflects on types at run time (System.Reflection, Type.GetMethod and the like,
//    Activator; a type's own name aside): IL2CPP's stripping removes what only reflection
//    reaches.
//
// The IL is read instruction by instruction (the operand sizes from OpCodes), so a call is
// a call, not four bytes that happen to look like one. Exit status 1 on any breach.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.InteropServices;

static class Il2cppRules
{
    static readonly Dictionary<short, OpCode> Ops = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null))
        .ToDictionary(o => o.Value);

    static readonly HashSet<string> ReflectiveTypeMembers = new HashSet<string>
    {
        "GetMethod", "GetMethods", "GetField", "GetFields", "GetProperty", "GetProperties",
        "GetMember", "GetMembers", "GetConstructor", "GetConstructors", "GetEvent", "GetEvents",
        "GetNestedType", "GetNestedTypes", "GetInterface", "InvokeMember", "GetType",
    };

    static int Main(string[] paths)
    {
        var problems = new List<string>();
        int methods = 0, callbacks = 0;
        foreach (string path in paths)
        {
            Assembly asm = Assembly.LoadFrom(path);
            foreach (Type type in asm.GetTypes())
            {
                const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic |
                    BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly;
                var bodies = type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all));
                foreach (MethodBase m in bodies)
                {
                    MethodBody body = m.GetMethodBody();
                    if (body == null)
                        continue;
                    methods++;
                    Check(m, body.GetILAsByteArray(), problems, ref callbacks);
                }
            }
        }
        foreach (string p in problems)
            Console.WriteLine("IL2CPP rule broken: " + p);
        Console.WriteLine("{0} assemblies, {1} method bodies, {2} native callbacks: {3} problems",
            paths.Length, methods, callbacks, problems.Count);
        return problems.Count == 0 && methods > 0 ? 0 : 1;
    }

    static void Check(MethodBase m, byte[] il, List<string> problems, ref int callbacks)
    {
        Type[] typeArgs = m.DeclaringType.IsGenericType ? m.DeclaringType.GetGenericArguments() : null;
        Type[] methodArgs = m.IsGenericMethod ? m.GetGenericArguments() : null;
        string where = m.DeclaringType.FullName + "." + m.Name;
        MethodBase pointed = null; // the method of the last ldftn, until its delegate is made
        for (int i = 0; i < il.Length;)
        {
            short value = il[i] == 0xFE ? (short)(0xFE00 | il[i + 1]) : il[i];
            OpCode op = Ops[value];
            i += op.Size;
            int operand = i + 4 <= il.Length ? BitConverter.ToInt32(il, i) : 0;
            i += OperandSize(op, il, i);
            if (op == OpCodes.Ldftn || op == OpCodes.Ldvirtftn)
            {
                pointed = m.Module.ResolveMethod(operand, typeArgs, methodArgs);
                continue;
            }
            if (op != OpCodes.Call && op != OpCodes.Callvirt && op != OpCodes.Newobj)
                continue;
            MethodBase callee = m.Module.ResolveMethod(operand, typeArgs, methodArgs);
            Type owner = callee.DeclaringType;
            if (op == OpCodes.Newobj && pointed != null && owner.IsSubclassOf(typeof(MulticastDelegate)))
            {
                if (owner.GetCustomAttributes(typeof(UnmanagedFunctionPointerAttribute), false).Length > 0)
                {
                    callbacks++;
                    if (!pointed.IsStatic)
                        problems.Add(where + ": a " + owner.Name + " for native code from instance method " + pointed.Name);
                    if (!MarkedFor(pointed, owner))
                        problems.Add(where + ": " + pointed.Name + " is handed to native code as a " + owner.Name +
                            " without [MonoPInvokeCallback(typeof(" + owner.Name + "))]");
                }
                pointed = null;
            }
            string ns = owner.Namespace ?? "";
            // A type's own name (an exception's message) is metadata IL2CPP always keeps.
            bool name = callee.Name == "get_Name" || callee.Name == "get_FullName";
            if (!name && (ns == "System.Reflection" || ns.StartsWith("System.Reflection.") ||
                owner == typeof(Activator) || (owner == typeof(Type) && ReflectiveTypeMembers.Contains(callee.Name))))
                problems.Add(where + ": reflection at run time (" + owner.Name + "." + callee.Name + ")");
        }
    }

    static bool MarkedFor(MethodBase m, Type delegateType)
    {
        return m.GetCustomAttributesData().Any(a =>
            a.AttributeType.Name == "MonoPInvokeCallbackAttribute" &&
            a.ConstructorArguments.Count == 1 &&
            (Type)a.ConstructorArguments[0].Value == delegateType);
    }

    static int OperandSize(OpCode op, byte[] il, int at)
    {
        switch (op.OperandType)
        {
            case OperandType.InlineNone: return 0;
            case OperandType.ShortInlineBrTarget:
            case OperandType.ShortInlineI:
            case OperandType.ShortInlineVar: return 1;
            case OperandType.InlineVar: return 2;
            case OperandType.InlineI8:
            case OperandType.InlineR: return 8;
            case OperandType.InlineSwitch: return 4 + 4 * BitConverter.ToInt32(il, at);
            default: return 4;
        }
    }
}
