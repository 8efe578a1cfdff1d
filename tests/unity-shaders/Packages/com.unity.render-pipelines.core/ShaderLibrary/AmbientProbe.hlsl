// Stand-in for com.unity.render-pipelines.core ShaderLibrary/AmbientProbe.hlsl under HDRP
// (AMBIENT_PROBE_BUFFER 1: the probe is the buffer ShaderVariablesAtmosphericScattering.hlsl
// declares). Source: Unity-Technologies/Graphics, the same path; L0 + L1 here.
#ifndef UNITY_AMBIENT_PROBE_INCLUDED
#define UNITY_AMBIENT_PROBE_INCLUDED
StructuredBuffer<float4> _AmbientProbeData;
float3 EvaluateAmbientProbe(float3 normalWS)
{
    float4 n = float4(normalWS, 1.0);
    return max(float3(0, 0, 0), float3(dot(_AmbientProbeData[0], n), dot(_AmbientProbeData[1], n), dot(_AmbientProbeData[2], n)));
}
#endif
