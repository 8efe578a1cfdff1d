// Between relief's doubles and Unity's floats. relief positions are world metres (flat) or
// planet-frame metres (planets, centre at 0); Unity positions are the component's local space,
// which is relief's shifted by a floating origin so floats stay precise near the player.
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>Conversions between relief's value types and Unity's.</summary>
    public static class Conversions
    {
        public static Vector3 ToVector3(Double3 v) { return new Vector3((float)v.X, (float)v.Y, (float)v.Z); }

        public static Double3 ToDouble3(Vector3 v) { return new Double3(v.x, v.y, v.z); }

        /// <summary>relief position → Unity local position: <paramref name="p"/> − origin, then
        /// narrowed (the subtraction in doubles is what keeps the precision).</summary>
        public static Vector3 ToLocal(Double3 p, Double3 origin) { return ToVector3(p - origin); }

        /// <summary>Unity local position → relief position.</summary>
        public static Double3 ToRelief(Vector3 local, Double3 origin) { return origin + ToDouble3(local); }

        public static Quaternion ToQuaternion(Rotation r) { return new Quaternion((float)r.X, (float)r.Y, (float)r.Z, (float)r.W); }
    }
}
